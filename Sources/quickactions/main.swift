// The launcher CLI; everything but the process entry lives in QuickActionsCLI.
import Glibc
import QuickActionsCLI

exit(await QuickActionsCLI.main())
