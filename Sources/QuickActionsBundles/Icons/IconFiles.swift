// Icon files resolved inside a bundle (`IconTable.resolve(_:bundle:)`, `IconError`) live in
// QuickActionsIconFiles, which the plugin host links without the rest of this module (and so
// without Foundation); they stay visible to every importer of QuickActionsBundles.
@_exported import QuickActionsIconFiles
