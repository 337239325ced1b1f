// The model's value types (ShortcutItem, ShortcutIcon, ShortcutIconType,
// UserInfo, UserInfoValue) are the SDK's: a plugin imports QuickActionsSDK alone.
@_exported import QuickActionsModel
