import Foundation
import GeoCampaignCore

/// `geocampaign-bench reader FILE [FILE ...]`: reads JSON Lines histories with the real reader and
/// prints lines/s and the peak resident memory.
func usage() -> Never {
    FileHandle.standardError.write("usage: geocampaign-bench reader FILE [FILE ...]\n".data(using: .utf8) ?? Data())
    exit(64)
}

func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

func benchReader(_ paths: [String]) -> Int32 {
    let builder = HistoryBuilder()
    let t0 = DispatchTime.now().uptimeNanoseconds
    do {
        for path in paths { try builder.readJSONLines(path: path) }
    } catch {
        FileHandle.standardError.write("\(error)\n".data(using: .utf8) ?? Data())
        return 66
    }
    let t1 = DispatchTime.now().uptimeNanoseconds
    let history = builder.finish()
    let t2 = DispatchTime.now().uptimeNanoseconds
    let s = history.stats
    let readSec = Double(t1 - t0) / 1e9
    let totalSec = Double(t2 - t0) / 1e9
    print("reader: \(s.linesRead) lines, \(s.fixesAccepted) fixes, \(s.totalRejected) rejected, \(history.userCount) users")
    print(String(format: "read: %.3f s = %.2f M lines/s; with sort: %.3f s = %.2f M lines/s",
                 readSec, Double(s.linesRead) / readSec / 1e6, totalSec, Double(s.linesRead) / totalSec / 1e6))
    print(String(format: "peak RSS: %.1f MiB, cores: %d (reader uses 1)", peakRSSMiB(),
                 ProcessInfo.processInfo.activeProcessorCount))
    return 0
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { usage() }
switch mode {
case "reader":
    if args.count < 2 { usage() }
    exit(benchReader(Array(args.dropFirst())))
default:
    usage()
}
