// KRunner's own RunnerManager (KF5's libKF5Runner) finding the QuickActions runner by its
// runner file in $XDG_DATA_HOME/krunner/dbusplugins, querying it over D-Bus and running one
// match: the same code path Plasma's KRunner takes. Used by KRunnerManagerTests.
//
//   krunner_harness QUERY TEXT_TO_RUN
//
// Prints one line per match: "match<TAB>id<TAB>text<TAB>subtext<TAB>relevance<TAB>runner id",
// then "ran<TAB>text" after running the match whose text is TEXT_TO_RUN (if any). Exit 0 when
// that match was found and run, 1 when not, 2 on a timeout.
#include <KRunner/AbstractRunner>
#include <KRunner/QueryMatch>
#include <KRunner/RunnerManager>
#include <QCoreApplication>
#include <QTimer>
#include <algorithm>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: krunner_harness QUERY TEXT_TO_RUN\n");
        return 2;
    }
    const QString query = QString::fromUtf8(argv[1]);
    const QString wanted = QString::fromUtf8(argv[2]);
    const QString runnerId = QStringLiteral("org.quickactions.Search1");

    Plasma::RunnerManager manager;
    bool done = false;
    // Matches may arrive after queryFinished (the D-Bus runner answers asynchronously), so
    // every change of the matches is looked at; queryFinished only starts a grace period.
    const auto finish = [&](bool final) {
        if (done) {
            return;
        }
        const auto matches = manager.matches();
        const auto wantedMatch = std::find_if(matches.begin(), matches.end(),
                                              [&](const Plasma::QueryMatch &match) { return match.text() == wanted; });
        if (wantedMatch == matches.end() && !final) {
            return;
        }
        done = true;
        for (const Plasma::QueryMatch &match : matches) {
            std::printf("match\t%s\t%s\t%s\t%.3f\t%s\n", qPrintable(match.id()), qPrintable(match.text()),
                        qPrintable(match.subtext()), match.relevance(),
                        match.runner() ? qPrintable(match.runner()->id()) : "-");
        }
        int status = 1;
        if (wantedMatch != matches.end()) {
            manager.run(*wantedMatch);
            std::printf("ran\t%s\n", qPrintable(wantedMatch->text()));
            status = 0;
        }
        std::fflush(stdout);
        // Run is an asynchronous D-Bus call: give it time to leave before the process ends.
        QTimer::singleShot(1000, &app, [status]() { QCoreApplication::exit(status); });
    };
    QObject::connect(&manager, &Plasma::RunnerManager::matchesChanged, &app, [&]() { finish(false); });
    QObject::connect(&manager, &Plasma::RunnerManager::queryFinished, &app, [&]() {
        QTimer::singleShot(5000, &app, [&]() { finish(true); });
    });
    QTimer::singleShot(30000, &app, []() {
        std::fprintf(stderr, "krunner_harness: no queryFinished within 30 s\n");
        QCoreApplication::exit(2);
    });
    // Single-runner mode with our runner's id: only it is asked, as when KRunner is opened
    // for one runner.
    manager.launchQuery(query, runnerId);
    return app.exec();
}
