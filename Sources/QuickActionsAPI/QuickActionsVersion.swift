/// The product's version, one place for every executable and the broker's `Version` property.
public enum QuickActionsVersion {
    public static let current = "1.1.0"
}
