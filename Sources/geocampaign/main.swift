import Foundation
import GeoCampaignCore

setvbuf(stdout, nil, _IOFBF, 1 << 16)
exit(GeoCampaignCLI.main(Array(CommandLine.arguments.dropFirst())).rawValue)
