// FuzzScriptTests.swift: Scripts/fuzz.sh keeps every committed regression input.
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Scripts/fuzz.sh")
struct FuzzScriptTests {
    /// A stand-in for the libFuzzer binary with libFuzzer's command line: `--write-seeds DIR`
    /// writes one seed, a fuzzing run adds `new-1` to the corpus (the first directory), and
    /// `-merge=1 OUT IN...` copies into OUT the inputs named `new-*` (in this scenario the only
    /// ones that add coverage), like libFuzzer never deleting from OUT.
    static let standInFuzzer = """
        #!/bin/sh
        case "$1" in
        --write-seeds) mkdir -p "$2"; echo seed > "$2/seed-0" ;;
        -merge=1) out="$2"; shift 2; for dir in "$@"; do for f in "$dir"/new-*; do [ -e "$f" ] && cp "$f" "$out/"; done; done ;;
        *) for argument in "$@"; do case "$argument" in -*) ;; *) echo found > "$argument/new-1"; break ;; esac; done ;;
        esac
        exit 0
        """

    @Test("merging this run's corpus only ever adds to the committed regressions")
    func mergeOnlyAdds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-fuzz-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let regressions = directory.appendingPathComponent("regressions")
        try FileManager.default.createDirectory(at: regressions, withIntermediateDirectories: true)
        let committed = (0..<5).map { "old-\($0)" }
        for name in committed { try Data(name.utf8).write(to: regressions.appendingPathComponent(name)) }
        let fuzzer = directory.appendingPathComponent("fuzzer")
        try Data(Self.standInFuzzer.utf8).write(to: fuzzer)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fuzzer.path)

        let process = Process()
        process.executableURL = SharedData.packageRoot.appendingPathComponent("Scripts/fuzz.sh")
        process.arguments = ["1"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "FUZZER": fuzzer.path, "FUZZ_WORK": directory.appendingPathComponent("work").path,
            "FUZZ_REGRESSIONS": regressions.path,
        ]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        let kept = try Set(FileManager.default.contentsOfDirectory(atPath: regressions.path))
        #expect(kept == Set(committed + ["new-1"]), "\(message)")
        for name in committed {
            #expect(try Data(contentsOf: regressions.appendingPathComponent(name)) == Data(name.utf8))
        }
    }
}
