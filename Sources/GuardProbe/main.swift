// guard-probe: one process's life with the SIGBUS guard of a mapped index, for the tests of
// CommandLineTests' SignalGuardTests (not a product). Each mode prints what it got through
// and exits 0; a mode that must end by a signal prints "survived" if it does not.
//
//   guard-probe MODE INDEX SCRATCH_DIRECTORY
//
// Modes (SIGBUS's disposition as the process starts: default, or ignored with "-ignored"):
//   foreign-fault[-ignored]   opens INDEX, then reads past the end of another mapped file of
//                             its own: must end by SIGBUS, as it would without the library.
//   kill[-ignored]            opens INDEX, sends itself SIGBUS (kill), then truncates a copy of
//                             INDEX it opened and searches it: by default it must end by
//                             SIGBUS; ignored, it must go on and the guard still work.
//   kill-handled              as kill, with a handler of its own installed first: the handler
//                             runs once, and the guard still works.
//   kill-backtraced           as kill, run with Swift's backtracer on: when the process goes on
//                             after the backtracer's report ("survived-kill"), the guard still works.
//   many-opens                lowers its open-file limit to 64, opens INDEX 1,100 times (past
//                             the guard's 1,024 mappings) and searches each: every open must
//                             work and the process must still open files.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CityIndex

nonisolated(unsafe) var handledSignals: Int32 = 0

func fail(_ message: String) -> Never {
    say(message)
    exit(1)
}

// What it prints must survive a signal that ends it: written at once, not buffered.
func say(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
}
let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: guard-probe MODE INDEX SCRATCH_DIRECTORY") }
let (mode, indexPath, scratch) = (arguments[1], arguments[2], arguments[3])
if mode.hasSuffix("-ignored") { signal(SIGBUS, SIG_IGN) }
if mode == "kill-handled" { signal(SIGBUS) { _ in handledSignals += 1 } }

/// Copies `from` to `to` (the index this process may truncate).
func copy(_ from: String, _ to: String) {
    guard let input = fopen(from, "rb"), let output = fopen(to, "wb") else { fail("cannot copy \(from)") }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, input)
        if count == 0 { break }
        fwrite(buffer, 1, count, output)
    }
    fclose(input)
    fclose(output)
}

let ownCopy = scratch + "/probe-index.cidx"
copy(indexPath, ownCopy)
let index: CityIndex
do { index = try CityIndex(path: ownCopy) } catch { fail("cannot open: \(error)") }
_ = try? index.search("a")

switch mode {
case "foreign-fault", "foreign-fault-ignored":
    // Another mapping of this process, not an index: a read past its truncated end is a fault
    // the guard does not own.
    let path = scratch + "/other.bin"
    let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0, ftruncate(descriptor, 8192) == 0,
          let mapping = mmap(nil, 8192, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { fail("cannot map") }
    guard ftruncate(descriptor, 0) == 0 else { fail("cannot truncate") }
    let byte = mapping.load(fromByteOffset: 4096, as: UInt8.self)
    say("survived \(byte)")
    exit(0)
case "kill", "kill-ignored", "kill-handled", "kill-backtraced":
    kill(getpid(), SIGBUS)
    if mode == "kill" { say("survived") }
    if mode == "kill-backtraced" { say("survived-kill") }
    // The guard must still own the index's faults: truncate the file it maps and search.
    guard truncate(ownCopy, 0) == 0 else { fail("cannot truncate the index") }
    for query in ["a", "b", "paris", "z"] { _ = try? index.search(query) }
    let changed = (try? index.checkFileUnchanged()) == nil
    say("guarded changed=\(changed) handled=\(handledSignals)")
    exit(0)
case "many-opens":
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = 64
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { fail("cannot lower the open-file limit") }
    var indexes: [CityIndex] = []
    for number in 1 ... 1_100 {
        do { indexes.append(try CityIndex(path: ownCopy)) } catch { fail("open \(number) failed: \(error)") }
    }
    let answered = indexes.filter { ((try? $0.search("m").totalCount) ?? 0) == 2 && (try? $0.checkFileUnchanged()) != nil }.count
    let descriptor = open(ownCopy, O_RDONLY)
    say("opened \(indexes.count) answered \(answered) can-open-files=\(descriptor >= 0)")
    exit(0)
default:
    fail("unknown mode \(mode)")
}
