// Copy button for "Pix Copia e Cola" and the print button on the payer page.
document.addEventListener("click", (event) => {
  const copy = event.target.closest("[data-copy]");
  if (copy) {
    const field = document.getElementById(copy.dataset.copy);
    // A button may name its own status line and message (the sign page's management link).
    const status = copy.dataset.copyStatus ? document.getElementById(copy.dataset.copyStatus) : document.querySelector(".copy-status");
    const message = copy.dataset.copyDone || "Código copiado. Cole no app do seu banco.";
    const done = () => { if (status) status.textContent = message; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, () => { field.select(); document.execCommand("copy"); done(); });
    } else {
      field.select();
      document.execCommand("copy");
      done();
    }
  }
  if (event.target.closest("[data-print]")) window.print();
});
