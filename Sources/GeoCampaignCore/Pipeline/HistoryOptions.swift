import Foundation

/// What a run reads and writes, as the command line gave it (cli.md "Common options").
public struct HistoryOptions: Sendable {
    /// Campaign folders or files.
    public var campaignPaths: [String] = ["campaigns"]
    /// History files in order; `-` is stdin.
    public var historyPaths: [String] = []
    /// `--until` in Unix ms.
    public var untilMs: Int64?
    /// `--output`: nil or `-` for stdout.
    public var output: String?
    /// `--rejects`.
    public var rejects: String?
    /// `--strict`: any rejected line is fatal.
    public var strict = false
    /// `--field NAME=SOURCE` mappings.
    public var fieldMap: [String: String] = [:]
    /// Worker threads, >= 1.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// `--quiet`: no summary, no progress line.
    public var quiet = false
    /// The format and timestamp unit (`--history-format`, `--ts-format`); `fieldMap` is applied on top.
    public var baseFields = HistoryFields()

    /// Options with the defaults of cli.md.
    public init() {}
}
