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

    /// Whether `scalar` is a C0 or C1 control character or DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }
}
