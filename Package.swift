// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "geocampaign",
    products: [
        .executable(name: "geocampaign", targets: ["geocampaign"]),
        .library(name: "GeoCampaignCore", targets: ["GeoCampaignCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "GeoCampaignCore",
            dependencies: ["CYaml", "CLibXML2", "CSQLite"]
        ),
        .executableTarget(name: "geocampaign", dependencies: ["GeoCampaignCore"]),
        .executableTarget(name: "geocampaign-bench", dependencies: ["GeoCampaignCore"], path: "Benchmarks/geocampaign-bench"),
        .testTarget(name: "GeoCampaignCoreTests", dependencies: ["GeoCampaignCore"], exclude: ["Fixtures"]),
        .testTarget(name: "geocampaignTests", dependencies: ["geocampaign"]),
    ]
)
