"""The table's hardware: SORRY! buttons on GPIO and the HOME LED board on USB serial.

The app starts everything with one call and shows the statuses:

    hw = start_table_hardware(session, config, ledboard_port=None, on_status=callback)
    ...
    hw.close()

Importing this package needs only the standard library and `companion`; gpiozero and
pyserial are imported when a part starts (see hardware/table.py).
"""

from hardware.status import Status, StatusKind
from hardware.table import TableHardware, start_table_hardware

__all__ = ["Status", "StatusKind", "TableHardware", "start_table_hardware"]
