// InteractiveSearchTests.swift: city-search --interactive in a real terminal (tmux).
import CityIndexTestSupport
import Foundation
import Testing

/// A tmux server of its own, running one program in a pseudo terminal.
struct TmuxSession {
    let socket = "cityindex-\(UUID().uuidString.prefix(8))"

    /// tmux on the `PATH` (Debian: /usr/bin; macOS with Homebrew: /opt/homebrew/bin), if any.
    static let executablePath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        .split(separator: ":").map { $0 + "/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs tmux with posix_spawn and waits for it with waitpid. (Foundation's `Process`
    /// waits for the tmux server it forks, which never exits, so it cannot be used here.)
    /// Output goes to a temporary file, read back when `readingOutput`.
    @discardableResult
    func tmux(_ arguments: [String], readingOutput: Bool = false) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID()).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard let executable = Self.executablePath else { throw TestSetupError("tmux is not installed") }
        let argv = ([executable, "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw TestSetupError("cannot run tmux: error \(status)") }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
        return readingOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
    }

    func start(_ command: String, columns: Int = 100) throws {
        try tmux(["new-session", "-d", "-s", "main", "-x", "\(columns)", "-y", "20", command])
    }
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "main"], readingOutput: true) }
    func stop() { _ = try? tmux(["kill-server"]) }

    /// Waits (up to 60 s: sanitizer builds on a loaded machine are slow) until the screen
    /// contains `text`; returns the screen.
    func waitFor(_ text: String) throws -> String {
        try waitFor(String(reflecting: text)) { $0.contains(text) }
    }

    /// Waits as `waitFor(_:)` does until `shown` holds for the screen, `description` naming it.
    func waitFor(_ description: String, _ shown: (String) -> Bool) throws -> String {
        var last = ""
        for _ in 0..<1200 {
            last = try screen()
            if shown(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSetupError("the screen never showed \(description):\n\(last)")
    }
}

@Suite("city-search --interactive in a pseudo terminal", .timeLimit(.minutes(10)),
       .enabled(if: TmuxSession.executablePath != nil, "tmux is not installed (Scripts/install-dependencies.sh installs it)"))
struct InteractiveSearchTests {
    /// Runs city-search --interactive with `options` on the small index, in a temporary folder
    /// (with its favorites file; removed afterwards) in a tmux session, the shell then running
    /// `after` (given the folder); calls `body` with the session and the folder.
    private func withInteractiveSearch(options: String = "", columns: Int = 100, after: (URL) -> String,
                                       _ body: (TmuxSession, URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-tty-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("small.cidx")
        try Data(Fixtures.smallIndexBytes).write(to: index)
        let favorites = directory.appendingPathComponent("favorites.json")
        let tool = Tool.productsDirectory.appendingPathComponent("city-search").path
        let terminal = TmuxSession()
        defer { terminal.stop() }
        try terminal.start("\(tool) --interactive \(options)--index \(index.path) --favorites \(favorites.path); \(after(directory))",
                           columns: columns)
        try body(terminal, directory)
    }

    @Test("type, move, details, favorite, favorites only, and the terminal restored after Ctrl-C")
    func session() throws {
        // stty writes a file of its own, renamed into place whole: it appears complete.
        try withInteractiveSearch(after: { directory in
            let settings = directory.appendingPathComponent("stty.txt").path
            return "stty -a > \(settings).partial && mv \(settings).partial \(settings); sleep 3"
        }) { terminal, directory in
            let favorites = directory.appendingPathComponent("favorites.json")
            let settings = directory.appendingPathComponent("stty.txt")
            #expect(try terminal.waitFor("13 cities").contains("Search:"))
            try terminal.send("m", "ü")
            let typed = try terminal.waitFor("2 cities")
            #expect(typed.contains(">   Munchen, DE") && typed.contains("    München, DE"))

            try terminal.send("Down", "Enter")
            let details = try terminal.waitFor("coordinates:")
            #expect(details.contains("48.14, 11.58") && details.contains("48°8′15″N, 11°34′32″E"))

            try terminal.send("Escape", "C-f")
            #expect(try terminal.waitFor("★ München").contains("added München to favorites"))
            try terminal.send("Tab")
            #expect(try terminal.waitFor("1 city · favorites only").contains("> ★ München, DE"))
            #expect(try String(contentsOf: favorites, encoding: .utf8) == "[2867714]")

            try terminal.send("C-c")
            for _ in 0..<1200 where !FileManager.default.fileExists(atPath: settings.path) { Thread.sleep(forTimeInterval: 0.05) }
            let modes = try String(contentsOf: settings, encoding: .utf8)
            #expect(modes.contains(" icanon") && modes.contains(" echo ") && !modes.contains("-icanon"))
        }
    }

    @Test("at 50 columns every line fits: the footer is shortened, long lines are cut, the Search: line stays on top")
    func narrowTerminal() throws {
        try withInteractiveSearch(options: "--match words --order population ", columns: 50, after: { _ in "sleep 3" }) { terminal, _ in
            _ = try terminal.waitFor("13 cities")
            try terminal.send("m")
            // München is among the empty query's 13 cities too: wait for the answer to "m".
            let screen = try terminal.waitFor("the answer to m") { $0.contains("München") && !$0.contains("13 cities") }
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first?.hasPrefix("Search: m") == true, "\(screen)")
            #expect(lines.allSatisfy { $0.count <= 50 }, "\(screen)")
            #expect(screen.contains("↑↓ · Enter · Ctrl-F ★ · Tab ★ only · Esc"), "\(screen)")
            try terminal.send("C-c")
        }
    }

    @Test("the recommended search box: word matching, population order, typos forgiven and marked")
    func typos() throws {
        try withInteractiveSearch(options: "--match words --order population --typos auto ", after: { _ in "sleep 3" }) { terminal, _ in
            #expect(try terminal.waitFor("13 cities").contains("Search:"))
            try terminal.send("h", "u", "r", "z", "f", "u")
            let screen = try terminal.waitFor("(1 typo)")
            #expect(screen.contains("hurzfu") && screen.contains("Hurzuf") && screen.contains("1 city"), "\(screen)")
            try terminal.send("C-c")
        }
    }

    @Test("--near: the nearer Paris first, with its distance; without it, the larger")
    func near() throws {
        // Paris, US (33.66, -95.56) has 25,171 people; Paris, FR 2,138,551.
        try withInteractiveSearch(options: "--near 33.6,-95.5 ", after: { _ in "sleep 3" }) { terminal, _ in
            _ = try terminal.waitFor("13 cities")
            try terminal.send("p", "a", "r", "i")
            let screen = try terminal.waitFor("2 cities")
            let first = try #require(screen.split(separator: "\n").first { $0.hasPrefix(">") }, "\(screen)")
            #expect(first.contains("Paris, US") && first.contains("km"), "\(screen)")
            try terminal.send("C-c")
        }
        try withInteractiveSearch(options: "--order population ", after: { _ in "sleep 3" }) { terminal, _ in
            _ = try terminal.waitFor("13 cities")
            try terminal.send("p", "a", "r", "i")
            let screen = try terminal.waitFor("2 cities")
            #expect(screen.split(separator: "\n").first { $0.hasPrefix(">") }?.contains("Paris, FR") == true, "\(screen)")
            try terminal.send("C-c")
        }
    }

    @Test("--debounce-milliseconds: typed text shows at once, its search waits for the pause")
    func debounce() throws {
        // A pause far longer than the test: once the typed text is on screen, its search has not run.
        // (The empty query's search waits too.)
        try withInteractiveSearch(options: "--debounce-milliseconds 600000 ", after: { _ in "sleep 3" }) { terminal, _ in
            _ = try terminal.waitFor("Search:")
            try terminal.send("m", "ü")
            let screen = try terminal.waitFor("Search: mü")
            #expect(!screen.contains("13 cities") && !screen.contains("2 cities") && !screen.contains("München"), "\(screen)")
            try terminal.send("C-c")
        }
        // No pause: the search follows the typing.
        try withInteractiveSearch(options: "--debounce-milliseconds 0 ", after: { _ in "sleep 3" }) { terminal, _ in
            _ = try terminal.waitFor("13 cities")
            try terminal.send("m", "ü")
            #expect(try terminal.waitFor("2 cities").contains("Search: mü"))
            try terminal.send("C-c")
        }
    }
}
