// Consent banner and analytics. Nothing loads until the visitor accepts; the choice is kept in
// localStorage. A page view is sent once per path: showing the same path again (back/forward
// cache, a re-render) does not send another.
(() => {
  const banner = document.getElementById("consentimento");
  if (!banner) return;
  const id = banner.dataset.measurementId;
  const KEY = "balcao-consentimento";
  let lastPath = null;

  function pageView() {
    const path = location.pathname;
    if (path === lastPath) return;
    lastPath = path;
    window.gtag("event", "page_view", { page_path: path, page_title: document.title });
  }

  function load() {
    window.dataLayer = window.dataLayer || [];
    window.gtag = function () { window.dataLayer.push(arguments); };
    window.gtag("js", new Date());
    window.gtag("config", id, { send_page_view: false, anonymize_ip: true });
    const script = document.createElement("script");
    script.async = true;
    script.src = "https://www.googletagmanager.com/gtag/js?id=" + encodeURIComponent(id);
    document.head.appendChild(script);
    pageView();
    window.addEventListener("pageshow", pageView);
    window.addEventListener("popstate", pageView);
  }

  const choice = localStorage.getItem(KEY);
  if (choice === "aceitar") { load(); return; }
  if (choice === "recusar") return;
  banner.hidden = false;
  banner.addEventListener("click", (event) => {
    const button = event.target.closest("[data-consent]");
    if (!button) return;
    localStorage.setItem(KEY, button.dataset.consent);
    banner.hidden = true;
    if (button.dataset.consent === "aceitar") load();
  });
})();
