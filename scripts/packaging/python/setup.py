# The wheel carries a binary: not pure Python (its files go to the platform's site-packages), and
# it fits any Linux of its architecture (the binary is fully static), which DDBD_WHEEL_PLATFORM
# names (scripts/packaging/python/build).
import os

from setuptools import Distribution, setup
from wheel.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        return "py3", "none", os.environ["DDBD_WHEEL_PLATFORM"]


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
