// Copy button for "Pix Copia e Cola" and the print button on the payer page.
document.addEventListener("click", (event) => {
  const copy = event.target.closest("[data-copy]");
  if (copy) {
    const field = document.getElementById(copy.dataset.copy);
    const status = document.querySelector(".copy-status");
    const done = () => { if (status) status.textContent = "Código copiado. Cole no app do seu banco."; };
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
