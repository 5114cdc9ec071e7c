"""Kernel perceptrons (dual form) and the kernel registry."""

from perceptrons.kernel.kernels import KERNEL_NAMES, KERNELS
from perceptrons.kernel.perceptron import KernelPerceptron

__all__ = ["KERNELS", "KERNEL_NAMES", "KernelPerceptron"]
