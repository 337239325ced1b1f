// Installed only into scripts/screenshots.sh's temporary HOME: unsafe mode lets the script
// call org.gnome.Shell.Eval and org.gnome.Shell.Screenshot, which GNOME Shell 43 otherwise
// keeps to its own tools (and has no command-line switch for).
function init() {}

function enable() {
    global.context.unsafe_mode = true;
}

function disable() {
    global.context.unsafe_mode = false;
}
