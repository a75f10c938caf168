// BuildSummary.swift: what a build produced, for people and machines.
import CityIndex
import CityIndexArtifacts

/// Figures of one build: counts, section sizes and time.
public struct BuildSummary: Sendable, Equatable {
    public struct SectionSize: Sendable, Equatable {
        public let kind: SectionKind
        public let byteCount: Int
    }

    public var cityCount: Int
    public var distinctKeyCount: Int
    public var trieNodeCount: Int
    /// Distinct word suffix keys, word postings and word trie nodes (word matching).
    public var wordKeyCount: Int
    public var wordPostingCount: Int
    public var wordTrieNodeCount: Int
    public var foldTableEntryCount: Int
    public var sections: [SectionSize]
    public var fileByteCount: Int
    /// Bytes of JSON read (after decompression).
    public var inputByteCount: Int
    public var inputFormat: CompressionFormat
    public var elapsedSeconds: Double
    /// Sorted runs the build wrote to scratch files because the memory limit was reached
    /// (0: everything was sorted in memory).
    public var spilledRunCount: Int = 0
    /// The wall time of each phase, in the order they ran ("reading": parsing and preparing
    /// the list, then those `IndexBuilder.phaseStarted` names); together `elapsedSeconds`.
    public var phases: [PhaseTime] = []
    /// Control characters (U+0000–U+001F, U+007F–U+009F) in the list's strings, which JSON
    /// allows only escaped: kept as given (a name is what the list says; `city-search` prints
    /// them as visible escapes), and worth a warning, since no real place name has one.
    public var controlCharacterCount: Int = 0
    /// Where the first of them is (line, column and record), to fix the list.
    public var firstControlCharacter: CityListError?

    /// How long one phase of the build took.
    public struct PhaseTime: Sendable, Equatable {
        public let name: String
        public let seconds: Double

        public init(name: String, seconds: Double) {
            self.name = name
            self.seconds = seconds
        }
    }

    /// A table for a terminal.
    public var text: String {
        func perCity(_ bytes: Int) -> String {
            cityCount == 0 ? "-" : String(format: "%.2f B/city", Double(bytes) / Double(cityCount))
        }
        var lines = [
            "cities:        \(cityCount)",
            "distinct keys: \(distinctKeyCount) (\(trieNodeCount) trie nodes, \(foldTableEntryCount) fold table entries)",
            "word keys:     \(wordKeyCount) (\(wordPostingCount) postings, \(wordTrieNodeCount) trie nodes)",
            "sections:",
        ]
        for section in sections {
            lines.append("  \(section.kind)  \(String(section.byteCount).leftPadded(to: 10)) bytes  \(perCity(section.byteCount))")
        }
        lines.append("total:         \(fileByteCount) bytes (\(perCity(fileByteCount))), "
                     + String(format: "%.1f%%", inputByteCount == 0 ? 0 : 100 * Double(fileByteCount) / Double(inputByteCount))
                     + " of the \(inputByteCount) bytes of JSON (\(inputFormat) input)")
        lines.append(String(format: "elapsed:       %.2f s", elapsedSeconds)
                     + (spilledRunCount > 0 ? " (\(spilledRunCount) sorted runs spilled to disk)" : ""))
        if !phases.isEmpty {
            lines.append("phases:        " + phases.map { "\($0.name) " + String(format: "%.2f s", $0.seconds) }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object with the same figures.
    public var json: String { json(written: nil) }

    /// The JSON object, plus what was written when it was not the plain index:
    /// `"written": {"format": "xz", "bytes": N}` for a compressed artifact of N bytes.
    public func json(written: (format: String, byteCount: Int)?) -> String {
        let writtenField = written.map { ", \"written\": {\"format\": \"\($0.format)\", \"bytes\": \($0.byteCount)}" } ?? ""
        let sectionList = sections.map { "{\"kind\": \"\($0.kind)\", \"bytes\": \($0.byteCount)}" }.joined(separator: ", ")
        let phaseList = phases.map { "{\"name\": \"\($0.name)\", \"seconds\": \(String(format: "%.3f", $0.seconds))}" }.joined(separator: ", ")
        return "{\"cities\": \(cityCount), \"distinctKeys\": \(distinctKeyCount), \"trieNodes\": \(trieNodeCount), "
            + "\"wordKeys\": \(wordKeyCount), \"wordPostings\": \(wordPostingCount), \"wordTrieNodes\": \(wordTrieNodeCount), "
            + "\"foldTableEntries\": \(foldTableEntryCount), \"sections\": [\(sectionList)], "
            + "\"fileBytes\": \(fileByteCount), \"inputBytes\": \(inputByteCount), \"inputFormat\": \"\(inputFormat)\", "
            + "\"elapsedSeconds\": \(String(format: "%.3f", elapsedSeconds)), \"spilledRuns\": \(spilledRunCount), \"phases\": [\(phaseList)], \"controlCharacters\": \(controlCharacterCount)\(writtenField)}"
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
