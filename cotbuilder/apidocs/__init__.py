"""The AscendC API as documented (the asc-devkit API docs as records) and as emulated (the emulator headers)."""
