// Where the workbench finds shardbench-core, keeps its run store and writes
// the plans it launches (typed settings; empty values mean the defaults).
#pragma once

#include "settings/setting.hpp"

#include <QString>

namespace sb::app {

struct RunSettings {
    static inline const Setting<QString> corePath{QStringLiteral("run/corePath")};   // "" = next to the workbench
    static inline const Setting<QString> storePath{QStringLiteral("run/storePath")}; // "" = the CLI's default store
    static inline const Setting<QString> launchDir{QStringLiteral("run/launchDir")}; // "" = dataDir()/launches
    static inline const Setting<int> maxRestarts{QStringLiteral("run/maxRestarts"), 0};
    static inline const Setting<bool> detached{QStringLiteral("run/detached"), false}; // launches outlive the workbench
    static inline const Setting<bool> notify{QStringLiteral("run/notify"), true};      // desktop notifications of run alerts
    static inline const Setting<QString> alertCommand{QStringLiteral("run/alertCommand")}; // "" = none (run_notifier.hpp)
    // What the ranks run (launch/run_config.hpp): "core", "exported" (the plan's
    // FSDP2 script) or "script" (the user's, `script`), under `python`.
    static inline const Setting<QString> engine{QStringLiteral("run/engine"), QStringLiteral("core")};
    static inline const Setting<QString> script{QStringLiteral("run/script")};
    static inline const Setting<QString> scriptArgs{QStringLiteral("run/scriptArgs")}; // split as a shell would
    static inline const Setting<QString> python{QStringLiteral("run/python"), QStringLiteral("python3")};

    // The workbench's own files next to the run store: ~/.local/share/shardbench
    // on Linux (the same folder whatever the application's names).
    static QString dataDir();
    static QString resolvedCorePath();
    static QString resolvedStorePath();
    static QString resolvedLaunchDir();
};

} // namespace sb::app
