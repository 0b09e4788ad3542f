"""The pure core of the Sorry! Table Companion: rules, session, journal, config, CLI.

Standard library only: the UI (`ui/`) and the hardware (`hardware/`) build on this
package, never the other way round.
"""

__version__ = "0.1.0"
