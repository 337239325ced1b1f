#include "quickactions_plugin.h"
