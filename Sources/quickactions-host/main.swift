// quickactions-host: runs one app's plugin in a process of its own, for the broker that
// started it (dbus/org.quickactions.Host1.xml). Not meant to be run by hand: the broker
// passes everything in the environment (QUICKACTIONS_HOST_*).
import CQuickActionsHostSupport
import Glibc
import QuickActionsAPI
import QuickActionsHost

// End with the broker: a parent-death signal, and a check that the parent did not die before
// it was set. (The broker starts hosts from a thread that lives as long as it does.)
let parent = getppid()
_ = qa_set_parent_death_signal(SIGKILL)
if getppid() != parent { exit(0) }

if CommandLine.arguments.dropFirst().contains("--version") {
    print("quickactions-host \(productVersion)")
    exit(0)
}

let service: HostService
do {
    service = try HostService(configuration: HostConfiguration())
} catch is PluginLoadError {
    // The broker was told (LoadFailed) and logs it once.
    exit(1)
} catch {
    // The broker logs this line: the host's standard error is its log.
    var line = "quickactions-host: \(error)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}
// Until the broker says Stop or goes away.
service.ended.wait()
service.connection.close()
exit(0)
