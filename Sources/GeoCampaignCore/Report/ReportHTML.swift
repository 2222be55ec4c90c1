/// The HTML report.
public enum ReportHTML {
    public static func render(_ m: Measurement, campaigns: CampaignSet, user: ReportUser?) -> [UInt8] { [] }
}
