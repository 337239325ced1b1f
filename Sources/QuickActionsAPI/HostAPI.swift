import DBus

/// The plugin host protocol (dbus/org.quickactions.Host1.xml): between the broker and the
/// process that runs one app's plugin, over a private peer-to-peer connection.
public enum HostAPI {
    /// The host's object and interface.
    public static let hostPath: ObjectPath = "/org/quickactions/Host1"
    public static let hostInterface: InterfaceName = "org.quickactions.Host1"
    /// The broker's object and interface on each host connection.
    public static let brokerPath: ObjectPath = "/org/quickactions/Host1/Broker"
    public static let brokerInterface: InterfaceName = "org.quickactions.Host1.Broker"

    /// A Perform whose item was left out (protocol 1.1) for a request key the host does not
    /// keep: the broker sends it again in full.
    public static let unknownRequestKeyError: ErrorName = "org.quickactions.Host1.Error.UnknownRequestKey"

    /// The keys of Host1.Perform's result beyond the public ``BrokerAPI/ResultKey``s.
    public enum ResultKey {
        /// The request key whose item and request the host now keeps (protocol 1.1), in the
        /// answer to the call that brought them in full: later calls may leave the item out.
        public static let keptRequestKey = "kept-request-key"
    }

    /// The methods of org.quickactions.Host1.
    public enum HostMember {
        public static let perform: MemberName = "Perform"
        public static let willResign: MemberName = "WillResign"
        public static let stop: MemberName = "Stop"
    }

    /// The methods of org.quickactions.Host1.Broker.
    public enum BrokerMember {
        public static let loaded: MemberName = "Loaded"
        public static let loadFailed: MemberName = "LoadFailed"
        public static let setDynamicItems: MemberName = "SetDynamicItems"
        public static let getDynamicItems: MemberName = "GetDynamicItems"
        public static let log: MemberName = "Log"
    }

    /// The keys of a host item (Perform's item, SetDynamicItems' items) beyond ``ItemKey``.
    public enum ItemKey {
        public static let iconType = "icon-type"
        public static let iconSymbol = "icon-symbol"
        public static let iconFile = "icon-file"
    }

    /// The keys of Perform's request.
    public enum RequestKey {
        public static let resolvedIcon = "resolved-icon"
        public static let arguments = "arguments"
        public static let activationToken = "activation-token"
        /// A number the broker gives one exact item and request (since protocol 1.1), put
        /// first in the request so that a host finds it without decoding the rest.
        public static let key = "request-key"
    }

    /// The environment a host reads at start.
    public enum Environment {
        /// The broker's peer address.
        public static let address = "QUICKACTIONS_HOST_ADDRESS"
        /// The app id, the bundle folder, the library, the data folder and the locale.
        public static let appID = "QUICKACTIONS_HOST_APP_ID"
        public static let bundle = "QUICKACTIONS_HOST_BUNDLE"
        public static let library = "QUICKACTIONS_HOST_LIBRARY"
        public static let dataDirectory = "QUICKACTIONS_HOST_DATA_DIRECTORY"
    }
}
