import Foundation
import GeoCampaignCore

/// `geocampaign-bench reader [--threads N] FILE [FILE ...]`: reads JSON Lines histories (CSV for a `.csv`
/// file) with the real reader and prints lines/s and the peak resident memory; `csv` reads every file as CSV.
func usage() -> Never {
    FileHandle.standardError.write("usage: geocampaign-bench reader|csv [--threads N] FILE [FILE ...] | sorted FILE [FILE ...] | crossing CAMPAIGNS HISTORY [ROUNDS]\n".data(using: .utf8) ?? Data())
    exit(64)
}

func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// CPU time of the process (all threads) in seconds (less sensitive than wall time to other load on the machine).
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func benchReader(_ arguments: [String], format: HistoryFormat? = nil) -> Int32 {
    var paths = arguments
    var fields = HistoryFields()
    fields.format = format
    let builder = HistoryBuilder(fields: fields)
    if paths.count >= 2 && paths[0] == "--threads" {
        guard let n = Int(paths[1]), n >= 1 else { usage() }
        builder.threads = n
        paths.removeFirst(2)
    }
    if paths.isEmpty { usage() }
    let t0 = DispatchTime.now().uptimeNanoseconds
    let c0 = threadCPUSeconds()
    do {
        for path in paths { try builder.read(path: path) }
    } catch {
        FileHandle.standardError.write("\(error)\n".data(using: .utf8) ?? Data())
        return 66
    }
    let t1 = DispatchTime.now().uptimeNanoseconds
    let c1 = threadCPUSeconds()
    let peakAfterRead = peakRSSMiB()
    let history = builder.finish()
    let t2 = DispatchTime.now().uptimeNanoseconds
    let c2 = threadCPUSeconds()
    let s = history.stats
    let readSec = Double(t1 - t0) / 1e9
    let totalSec = Double(t2 - t0) / 1e9
    print("reader (\(format?.rawValue ?? "by extension")): \(s.linesRead) lines, \(s.fixesAccepted) fixes, \(s.totalRejected) rejected, \(history.userCount) users")
    print(String(format: "wall: %.3f s = %.2f M lines/s; with sort: %.3f s = %.2f M lines/s",
                 readSec, Double(s.linesRead) / readSec / 1e6, totalSec, Double(s.linesRead) / totalSec / 1e6))
    print(String(format: "cpu (all threads): %.3f s = %.2f M lines/s; with sort: %.3f s = %.2f M lines/s",
                 c1 - c0, Double(s.linesRead) / (c1 - c0) / 1e6, c2 - c0, Double(s.linesRead) / (c2 - c0) / 1e6))
    print(String(format: "peak RSS: %.1f MiB after reading, %.1f MiB after grouping, cores: %d (reader uses %d)", peakAfterRead, peakRSSMiB(),
                 ProcessInfo.processInfo.activeProcessorCount, builder.threads))
    return 0
}

/// `geocampaign-bench sorted FILE [FILE ...]`: streams grouped histories user by user (`--sorted`).
func benchSorted(_ paths: [String]) -> Int32 {
    let reader = SortedHistoryReader()
    var users = 0, fixes = 0, largest = 0
    reader.onUser = { _, f in
        users += 1
        fixes += f.count
        largest = max(largest, f.count)
    }
    let t0 = DispatchTime.now().uptimeNanoseconds
    do {
        for path in paths { try reader.read(path: path) }
        try reader.finish()
    } catch {
        FileHandle.standardError.write("\(error)\n".data(using: .utf8) ?? Data())
        return 65
    }
    let sec = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    let s = reader.stats
    print("sorted: \(s.linesRead) lines, \(fixes) fixes, \(users) users (largest \(largest) fixes)")
    print(String(format: "wall: %.3f s = %.2f M lines/s; cpu (all threads): %.3f s; peak RSS: %.1f MiB",
                 sec, Double(s.linesRead) / sec / 1e6, threadCPUSeconds(), peakRSSMiB()))
    return 0
}

/// `geocampaign-bench crossing CAMPAIGNS HISTORY [ROUNDS]`: the crossing engine alone on one thread
/// (campaigns loaded, history read and grouped first, not timed): fixes per second and ns per fix.
func benchCrossing(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 2 else { usage() }
    let rounds = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 1) : 3
    let load = CampaignLoader().load(paths: [arguments[0]])
    if load.hasErrors {
        FileHandle.standardError.write("the campaigns have errors\n".data(using: .utf8) ?? Data())
        return 65
    }
    let builder = HistoryBuilder()
    do { try builder.readJSONLines(path: arguments[1]) } catch {
        FileHandle.standardError.write("\(error)\n".data(using: .utf8) ?? Data())
        return 66
    }
    let history = builder.finish()
    let t0 = DispatchTime.now().uptimeNanoseconds
    let crossing = CampaignCrossing(campaigns: load.campaignSet.campaigns, settings: load.campaignSet.settings)
    let compile = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    let tEnd = history.fixes.compactMap { $0.last?.time }.max() ?? 0
    var best = Double.infinity, visits = 0, fixes = 0
    for _ in 0..<rounds {
        visits = 0
        fixes = 0
        let c0 = threadCPUSeconds()
        for user in history.fixes {
            fixes += user.count
            visits += crossing.visits(fixes: user, tEnd: tEnd).reduce(0) { $0 + $1.count }
        }
        best = min(best, threadCPUSeconds() - c0)
    }
    print("crossing: \(history.userCount) users, \(fixes) fixes, \(visits) visits; compile \(String(format: "%.3f", compile)) s")
    print(String(format: "best of %d (cpu): %.3f s = %.2f M fixes/s, %.0f ns/fix", rounds, best, Double(fixes) / best / 1e6, best / Double(max(1, fixes)) * 1e9))
    return 0
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { usage() }
switch mode {
case "reader":
    if args.count < 2 { usage() }
    exit(benchReader(Array(args.dropFirst())))
case "csv":
    if args.count < 2 { usage() }
    exit(benchReader(Array(args.dropFirst()), format: .csv))
case "sorted":
    if args.count < 2 { usage() }
    exit(benchSorted(Array(args.dropFirst())))
case "crossing":
    exit(benchCrossing(Array(args.dropFirst())))
default:
    usage()
}
