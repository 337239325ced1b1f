// Evaluated once in GNOME Shell by scripts/screenshots.sh (through org.gnome.Shell.Eval): the
// helpers its later calls use to open Dash to Dock's menu on the Contacts example's icon (the
// menu that carries the quicklist the broker serves over dbusmenu) and to find it on screen.
globalThis.quickActionsScreenshots = {
    dock() {
        const extension = Main.extensionManager.lookup('dash-to-dock@micxgx.gmail.com');
        if (!extension || !extension.stateObj || !extension.stateObj.dockManager)
            throw new Error('Dash to Dock is not running');
        return extension.stateObj.dockManager.mainDock;
    },

    icon(desktopID) {
        const icon = this.dock().dash._box.get_children()
            .map(container => container.child)
            .find(child => child && child.app && child.app.get_id() === desktopID);
        if (!icon)
            throw new Error(`no dock icon for ${desktopID}`);
        return icon;
    },

    openMenu(desktopID) {
        this.icon(desktopID).popupMenu();
        return true;
    },

    // The open menu's labels, one string: the script checks the dynamic items are there.
    labels(desktopID) {
        const menu = this.icon(desktopID)._menu;
        if (!menu || !menu.isOpen)
            throw new Error(`the menu of ${desktopID} is not open`);
        // Sections (the quicklist is one) hold items of their own.
        const labels = items => items.flatMap(item => item._getMenuItems
            ? labels(item._getMenuItems())
            : item.label ? [item.label.text] : []);
        return labels(menu._getMenuItems()).join(' | ');
    },

    // The screen area holding the dock and the open menu, with a margin: "x y width height".
    area(desktopID) {
        const boxes = [this.dock().dash, this.icon(desktopID)._menu.actor]
            .map(actor => actor.get_transformed_extents());
        const margin = 48;
        const left = Math.max(0, Math.min(...boxes.map(box => box.get_x())) - margin);
        const top = Math.max(0, Math.min(...boxes.map(box => box.get_y())) - margin);
        const right = Math.min(global.screen_width,
            Math.max(...boxes.map(box => box.get_x() + box.get_width())) + margin);
        const bottom = Math.min(global.screen_height,
            Math.max(...boxes.map(box => box.get_y() + box.get_height())) + margin);
        return [left, top, right - left, bottom - top].map(Math.round).join(' ');
    },
};
true;
