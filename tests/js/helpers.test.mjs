// The digit and number helpers of static/helpers.js, as the page imports them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { latinDigits, pageDigits, readNumber, all } from "../../static/helpers.js";

test("Arabic-Indic digits read as Latin", () => {
  assert.equal(latinDigits("٠١٢٣٤٥٦٧٨٩"), "0123456789");
});

test("Eastern Arabic-Indic digits read as Latin", () => {
  assert.equal(latinDigits("۰۱۲۳۴۵۶۷۸۹"), "0123456789");
});

test("the Arabic decimal separator is a point and a minus sign a minus", () => {
  assert.equal(latinDigits("١٫٥"), "1.5");
  assert.equal(latinDigits("\u2212٧"), "-7");
  assert.equal(latinDigits("K♥ 12"), "K♥ 12");
});

test("a whole number in any digits", () => {
  assert.equal(readNumber("١٣"), 13);
  assert.equal(readNumber("۱۳"), 13);
  assert.equal(readNumber(" 7 "), 7);
  assert.equal(readNumber("\u2212٢٥"), -25);
  assert.equal(readNumber("+3"), 3);
});

test("what is not a whole number is NaN", () => {
  for (const text of ["", "١٫٥", "1.5", "12a", "-", "٣ ٤"]) assert.ok(Number.isNaN(readNumber(text)), text);
});

test("digits shown in the page's setting", () => {
  assert.equal(pageDigits("-75 / 13", "arab"), "-٧٥ / ١٣");
  assert.equal(pageDigits(2026, "latn"), "2026");
  assert.equal(pageDigits("٥", "latn"), "٥");
});

test("the page's own setting is read from <html data-digits>", () => {
  globalThis.document = { documentElement: { getAttribute: () => "arab" } };
  try {
    assert.equal(pageDigits("10"), "١٠");
  } finally {
    delete globalThis.document;
  }
});

test("all() gives an array", () => {
  const root = { querySelectorAll: (s) => ({ length: 2, 0: s + "1", 1: s + "2" }) };
  assert.deepEqual(all(root, "x"), ["x1", "x2"]);
});
