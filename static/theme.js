/* Apply the remembered light or dark theme before the page is drawn (else the system's). */
(function () {
  try {
    var theme = localStorage.getItem("theme");
    if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  } catch (e) { /* storage blocked: follow the system */ }
})();
