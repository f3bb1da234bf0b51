// RoPE Lab: each embedded widget posts its height; this fits its iframe to it. Include it once
// per page, after the iframes (no inline script needed: it works under a strict CSP).
addEventListener("message", (e) => {
  if (!e.data || e.data.type !== "rope-lab:resize") return;
  for (const frame of document.querySelectorAll("iframe"))
    if (frame.contentWindow === e.source) {
      frame.style.border = "0"; // the default inset border would hide 4 px of the widget
      frame.style.height = e.data.height + "px";
    }
});
