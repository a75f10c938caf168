// NameLists.swift: lists of short strings, the names of `REGN` and `CTRY` (FORMAT.md §7.10).

/// `NameLists --> listCount:u32, textByteCount:u32, starts:u32^(listCount+1), padding to 8,
/// text:u8^textByteCount, padding to 8`. List *i* is `text[starts[i] ..< starts[i+1]]`, a run of
/// strings each `length:u8` then `length` bytes of UTF-8.
///
/// Invariant (checked by `init(validating:listCount:of:)`): the byte count matches the two
/// counts. The starts are checked where they are read: a list whose starts decrease or pass
/// the text is empty, and a string that runs past its list ends it (`verify()` reports both).
struct NameLists {
    let listCount: Int
    private let starts: ByteView
    private let text: ByteView

    /// The byte count of lists with these counts. O(1).
    static func byteCount(listCount: Int, textByteCount: Int) -> Int {
        8 + (4 * (listCount + 1) + 7) / 8 * 8 + (textByteCount + 7) / 8 * 8
    }

    /// - Parameter listCount: how many lists there must be; `nil` for any.
    /// - Complexity: O(1).
    init(validating view: ByteView, listCount requiredCount: Int?, of kind: SectionKind) throws(IndexFileError) {
        let listCount = Int(view.uint32(at: 0) ?? 0)
        let textByteCount = Int(view.uint32(at: 4) ?? 0)
        let expected = Self.byteCount(listCount: listCount, textByteCount: textByteCount)
        guard view.count >= 8, requiredCount == nil || requiredCount == listCount, view.count == expected else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(view.count),
                                       expectedByteCount: UInt64(Self.byteCount(listCount: requiredCount ?? listCount, textByteCount: textByteCount)))
        }
        self.listCount = listCount
        starts = view.slice(uncheckedOffset: 8, length: 4 * (listCount + 1))
        text = view.slice(uncheckedOffset: 8 + (4 * (listCount + 1) + 7) / 8 * 8, length: textByteCount)
    }

    /// Where list `index` (in `0 ..< listCount`) lies in the text; `nil` when its starts are
    /// damaged. O(1).
    func range(ofList index: Int) -> Range<Int>? {
        let start = Int(starts.uint32(uncheckedAt: 4 * index)), end = Int(starts.uint32(uncheckedAt: 4 * index + 4))
        return start <= end && end <= text.count ? start ..< end : nil
    }

    /// Calls `body` with each string of list `index` (in `0 ..< listCount`), in order, until it
    /// returns false. Returns false when the list is damaged (bad starts, or a string that runs
    /// past the list's end). O(the list's length).
    @discardableResult
    func forEachString(ofList index: Int, _ body: (ByteView) -> Bool) -> Bool {
        guard let range = range(ofList: index) else { return false }
        var position = range.lowerBound
        while position < range.upperBound {
            let length = Int(text.uint8(uncheckedAt: position))
            guard position + 1 + length <= range.upperBound else { return false }
            if !body(text.slice(uncheckedOffset: position + 1, length: length)) { return true }
            position += 1 + length
        }
        return true
    }

    /// The strings of list `index`, decoded (invalid UTF-8 repaired). O(the list's length).
    func strings(ofList index: Int) -> [String] {
        var strings: [String] = []
        forEachString(ofList: index) { bytes in
            strings.append(String(decoding: bytes.buffer, as: UTF8.self))
            return true
        }
        return strings
    }
}
