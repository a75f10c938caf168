// LegacySpellings.swift: the flags that chose a mode before city-search had commands.

/// Rewrites the mode flags of earlier releases into their commands, so scripts keep working:
/// `--nearest P` is `nearest P`, `--id N` is `city N`, `--inspect`, `--verify` and
/// `--interactive` are `inspect`, `verify` and `interactive`, and any of `--add-favorite`,
/// `--remove-favorite`, `--list-favorites` is `favorites` with those options. The first such
/// flag chooses; the other arguments keep their order (a second mode flag is then an option
/// its command does not take: a usage error). Arguments after `--`, and every argument when
/// the first names a command, are left as they are. O(arguments).
enum LegacySpellings {
    /// Flags that are followed by their value and become `COMMAND VALUE`.
    static let valued: [String: String] = ["--nearest": "nearest", "--id": "city"]
    /// Flags that become their command.
    static let plain: [String: String] = ["--inspect": "inspect", "--verify": "verify", "--interactive": "interactive"]
    /// Flags that `favorites` takes as they are.
    static let favorites: Set<String> = ["--add-favorite", "--remove-favorite", "--list-favorites"]

    static func rewritten(_ arguments: [String]) -> [String] {
        if let first = arguments.first, CitySearch.configuration.subcommands.contains(where: { $0.configuration.commandName == first })
            || first == "help" {
            return arguments
        }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        for position in arguments.indices where position < end {
            let argument = arguments[position]
            let (name, attached) = split(argument)
            if let command = valued[name] {
                var rest = arguments
                if let attached {
                    rest.remove(at: position)
                    return [command, attached] + rest
                }
                guard position + 1 < arguments.count else { return [command] + rest.filter { $0 != argument } }
                let value = arguments[position + 1]
                rest.removeSubrange(position ... position + 1)
                // `nearest` reads its point as given (it may start with a minus).
                return [command, value] + rest
            }
            if let command = plain[name], attached == nil {
                var rest = arguments
                rest.remove(at: position)
                return [command] + rest
            }
            if favorites.contains(name) { return ["favorites"] + arguments }
        }
        return arguments
    }

    /// "--id=5" as ("--id", "5"); "--id" as ("--id", nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
