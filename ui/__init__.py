"""The scorekeeper's touchscreen (Kivy). Every rule is asked of `companion`; none lives here.

Kivy is imported only by the modules that draw; `ui.command`, `ui.i18n`, `ui.wording`
and `ui.prefs` stay importable without it so the CLI works on a bare install.
"""
