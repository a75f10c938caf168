// Terminal.swift: raw mode, keys and screen size for the interactive search.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal in raw mode, restored on every way out: normal exit, a thrown
/// error, and SIGINT/SIGTERM/SIGHUP (the handlers restore it, then re-raise the signal).
enum Terminal {
    /// Whether an interactive session can run: standard input and output are a terminal and
    /// `TERM` is not `dumb` (which has no cursor control).
    static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && getenv("TERM").map { String(cString: $0) } != "dumb"
    }

    /// Whether text written to `descriptor` may carry bold and other attributes: it is a
    /// terminal, `NO_COLOR` is unset or empty (no-color.org) and `TERM` is not `dumb`.
    static func allowsEmphasis(on descriptor: Int32) -> Bool {
        guard isatty(descriptor) == 1 else { return false }
        if let noColor = getenv("NO_COLOR"), strlen(noColor) > 0 { return false }
        return getenv("TERM").map { String(cString: $0) } != "dumb"
    }

    /// The mode to restore; heap storage with a stable address (signal handlers use it).
    nonisolated(unsafe) private static let savedAttributes: UnsafeMutablePointer<termios> = {
        let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        pointer.initialize(to: termios())
        return pointer
    }()
    nonisolated(unsafe) private static var isRaw = false

    /// Switches standard input to raw mode (no echo, no line buffering, no signals from keys:
    /// Ctrl-C arrives as a byte) and shows the alternate screen.
    static func enterRawMode() -> Bool {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, savedAttributes) == 0 else { return false }
        var raw = savedAttributes.pointee
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        isRaw = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                Terminal.restore()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        atexit { Terminal.restore() }
        write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
        return true
    }

    /// Restores the saved mode and the normal screen (idempotent; async-signal-safe calls only).
    static func restore() {
        guard isRaw else { return }
        isRaw = false
        tcsetattr(STDIN_FILENO, TCSAFLUSH, savedAttributes)
        let leave: StaticString = "\u{1B}[?1049l"
        _ = systemWrite(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemWrite(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if count <= 0 { return }
            offset += count
        }
    }

    /// Rows and columns, or 24 × 80 when unknown.
    static var size: (rows: Int, columns: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0 else { return (24, 80) }
        return (Int(window.ws_row), Int(window.ws_col))
    }
}

/// A key press decoded from raw terminal input.
enum Key: Equatable {
    case character(Character)
    case backspace, up, down, enter, escape, tab, controlF, quit

    /// Decodes the keys in `bytes` (one read's worth); unknown sequences are dropped.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                    switch bytes[index + 2] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    default: break
                    }
                    index += 3
                    continue
                }
                keys.append(.escape)
            case 0x03, 0x04: keys.append(.quit)
            case 0x06: keys.append(.controlF)
            case 0x09: keys.append(.tab)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC2...0xF4:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if index + length <= bytes.count,
                   let text = String(validating: bytes[index ..< index + length], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index += length
                continue
            default: break
            }
            index += 1
        }
        return keys
    }
}

#if canImport(Glibc)
let systemWrite = Glibc.write
let systemRead = Glibc.read
#elseif canImport(Darwin)
let systemWrite = Darwin.write
let systemRead = Darwin.read
#endif
