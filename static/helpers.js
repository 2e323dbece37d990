// scorekeeper: the helpers the page scripts share, as an ES module: the digit and number
// rules of static/app.js (latinDigits, pageDigits, readNumber) and all(), tested by
// node --test (tests/js/). No DOM at import time: node imports it as it is. The page
// scripts still carry their own copies until they load as modules and import these.

export function all(root, selector) {
  return Array.prototype.slice.call(root.querySelectorAll(selector));
}

// Numbers as people type them: Latin 0-9, Arabic-Indic ٠-٩ (U+0660-0669) and Eastern
// Arabic-Indic ۰-۹ (U+06F0-06F9, Persian and Urdu keyboards) read the same; the Arabic
// decimal separator ٫ is a point and a real minus sign a minus. The server reads them the
// same way (text/locale.latin_digits).
export function latinDigits(text) {
  return String(text).replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u2212]/g, function (c) {
    var code = c.charCodeAt(0);
    if (code === 0x66b) return ".";
    if (code === 0x2212) return "-";
    return String(code - (code >= 0x6f0 ? 0x6f0 : 0x660));
  });
}

// Latin digits in a digits setting, "latn" or "arab": by default the page's
// (<html data-digits="latn|arab">).
export function pageDigits(text, system) {
  text = String(text);
  if (system === undefined) system = document.documentElement.getAttribute("data-digits");
  if (system !== "arab") return text;
  return text.replace(/[0-9]/g, function (d) { return String.fromCharCode(0x0660 + Number(d)); });
}

// A whole number typed in any of those digits, or NaN.
export function readNumber(text) {
  var latin = latinDigits(text).trim();
  return /^[-+]?[0-9]+$/.test(latin) ? parseInt(latin, 10) : NaN;
}
