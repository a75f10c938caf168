// CityIndexPluginTool: what CityIndexPlugin runs to compile one city list into an index.
//
//   CityIndexPluginTool INPUT OUTPUT [PLACES]
//
// Problems are printed as `FILE:LINE:COLUMN: error: MESSAGE`, the form Xcode and SwiftPM show
// at the place in the file; the exit status is 1 then.
import CityIndexBuilder
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    FileHandle.standardError.write(Data("error: usage: CityIndexPluginTool INPUT OUTPUT [PLACES]\n".utf8))
    exit(2)
}
let (input, output) = (arguments[1], arguments[2])
do throws(IndexBuildError) {
    var builder = IndexBuilder()
    if arguments.count == 4 { builder.places = try PlaceNames(contentsOfFile: arguments[3]) }
    let summary = try builder.build(inputPath: input, outputPath: output)
    print("\(input): \(summary.cityCount) cities, \(summary.fileByteCount) bytes of index")
} catch {
    let message: String
    switch error {
    case .invalidCityList(let listError):
        let record = listError.recordID.map { "record _id \($0): " } ?? ""
        message = "\(input):\(listError.line):\(listError.column): error: \(record)\(listError.message)"
    case .invalidPlaceNames(let path, let listError):
        message = "\(path ?? arguments[3]):\(listError.line):\(listError.column): error: \(listError.message)"
    default:
        message = "\(input): error: \(error)"
    }
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}
