// Python with CUDA C++ highlighted inside it: the source of a cupy.RawKernel (or RawModule)
// is a triple-quoted Python string, and a kernel exercise's code is mostly that source.
// A triple-quoted string whose text looks like CUDA (it declares a __global__ or __device__
// function, or an extern "C" block) is parsed again as C++, overlaid on the string's
// contents; every other string stays a plain Python string.
import { cpp, cppLanguage } from "@codemirror/lang-cpp";
import { python, pythonLanguage } from "@codemirror/lang-python";
import { LanguageSupport } from "@codemirror/language";
import { parseMixed } from "@lezer/common";

const KERNEL_SOURCE = /__global__|__device__|extern\s+"C"/;
const TRIPLE_QUOTED = /^[rRbBuU]{0,2}("""|''')/;

export function kernelSourceRange(text) {
  // The range of `text` (a Python string literal) to read as C++, or null.
  const opening = TRIPLE_QUOTED.exec(text);
  if (!opening) return null;
  const from = opening[0].length;
  const to = text.endsWith(opening[1]) && text.length >= from + 3 ? text.length - 3 : text.length; // unclosed while typing
  if (to <= from || !KERNEL_SOURCE.test(text.slice(from, to))) return null;
  return { from, to };
}

const pythonWithKernels = pythonLanguage.configure({
  wrap: parseMixed((node, input) => {
    if (node.name !== "String") return null;
    const range = kernelSourceRange(input.read(node.from, node.to));
    if (!range) return null;
    return { parser: cppLanguage.parser, overlay: [{ from: node.from + range.from, to: node.from + range.to }] };
  }),
});

export function pythonAndCuda() {
  return new LanguageSupport(pythonWithKernels, [python().support, cpp().support]);
}
