"""reportlab with our settings only: it never reads a user's `~/.reportlab_settings` or
`~/.reportlab_mods`.

At import reportlab looks for modules named `reportlab_settings` and `reportlab_mods` and, when
there are none, reads those two files from the home folder. A stranger's settings there would
change our output (and `relic` never reads outside the project), so empty stand-ins are put in
their place before reportlab is first imported. Import this module before any `reportlab`.
"""

from __future__ import annotations

import sys
import types

for _name in ("reportlab_settings", "reportlab_mods"):
    sys.modules.setdefault(_name, types.ModuleType(_name, "relic: no user settings for reportlab"))
