VERSION = "0.0.0"  # set by scripts/packaging/python/build from CMakeLists.txt
