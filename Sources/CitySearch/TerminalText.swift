// TerminalText.swift: text from an index made harmless to print on a terminal.

/// A city list decides the names an index holds, so a name may carry ESC, BEL, CR, LF or NUL:
/// printed raw, it could retitle the terminal, clear the screen or fake output lines. Every
/// string from an index goes through `safe(_:)` before `city-search` prints it as text.
enum TerminalText {
    /// `text` with each control character (C0, DEL, C1) shown as a visible escape: `\x1B`,
    /// `\x7F`, `\u{85}`. Other characters are unchanged. O(*n*).
    static func safe(_ text: String) -> String { safe(text[...]) }

    /// `safe(_:)` of part of a string.
    static func safe(_ text: Substring) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{" + hex + "}"
        }
        return result
    }

    /// `line` cut to `columns` terminal columns, ending in "…" when cut. Escape sequences
    /// (`ESC [ … letter`: bold, reverse video) take no column; a wide character (CJK, Hangul,
    /// full-width forms) takes two. A cut line ends with the attributes reset. O(*n*).
    static func clipped(_ line: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let cells = self.cells(of: line)
        guard cells.reduce(0, { $0 + $1.width }) > columns else { return line }
        var result = "", used = 0
        for (character, width) in cells {
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…\u{1B}[0m"
    }

    /// Each character of `line` with the columns it takes on a terminal: none inside an escape
    /// sequence (`ESC [ … letter`).
    private static func cells(of line: String) -> [(character: Character, width: Int)] {
        var inEscape = false
        return line.map { character in
            guard !inEscape && character != "\u{1B}" else {
                inEscape = character == "\u{1B}" || !character.isLetter
                return (character, 0)
            }
            return (character, columnWidth(character))
        }
    }

    /// The columns `character` takes: 2 for East Asian wide and
    /// full-width characters, 1 otherwise.
    private static func columnWidth(_ character: Character) -> Int {
        switch character.unicodeScalars.first?.value ?? 0 {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }
}
