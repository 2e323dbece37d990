// scorekeeper: copy buttons for the game's view and edit links (the links stay
// selectable text without JavaScript). A button names its text with data-copy.
"use strict";

(function () {
  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyText(node) {
    var text = node.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain HTTP on the local network: no Clipboard API, select and copy instead.
    selectText(node);
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject();
  }

  function setup(button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target) return;
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      copyText(target).then(function () {
        button.textContent = button.getAttribute("data-copied") || label;
        window.setTimeout(function () { button.textContent = label; }, 2000);
      }, function () { selectText(target); });
    });
  }

  document.querySelectorAll("button[data-copy]").forEach(setup);
})();
