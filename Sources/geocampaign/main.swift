import Foundation
import GeoCampaignCore

setvbuf(stdout, nil, _IOFBF, 1 << 16)
// The process ends with its command: the campaigns it loaded are not freed one by one first.
CampaignLoading.keepLastSetUntilExit()
// Blocks of 4 MiB and more are mapped by malloc and given back when freed (ProcessMemory).
ProcessMemory.mapLargeBlocks()
exit(GeoCampaignCLI.main(Array(CommandLine.arguments.dropFirst())).rawValue)
