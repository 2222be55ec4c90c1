import Foundation
import GeoCampaignCore

setvbuf(stdout, nil, _IOFBF, 1 << 16)
// The process ends with its command: the campaigns it loaded are not freed one by one first.
CampaignLoading.keepLastSetUntilExit()
exit(GeoCampaignCLI.main(Array(CommandLine.arguments.dropFirst())).rawValue)
