// The payer page's live status: when a payment to this code arrives while the page is open,
// "Pagamento recebido" appears without a reload (a payment link's page reloads instead, into its
// "paid" page). A sign is paid by many people, so a page opens
// ready to pay and the stream (`/pagamento/{id}/eventos`) tells only of payments after what the
// page saw: after `?desde=` in the address (where "Simular pagamento" sends its payer back), else
// after the stream opened; never who paid. No framework: the page must stay light on a phone.
(function () {
  'use strict';
  var page = document.querySelector('[data-live]');
  if (!page || typeof window.EventSource === 'undefined') return;
  var status = page.querySelector('.paid-status');
  // Set by the server (a position `TX.GP`); anything else is left out.
  var given = new window.URLSearchParams(window.location.search).get('desde');
  var lastId = given && /^\d+\.\d+$/.test(given) ? given : null;
  var pause = 2000;

  function show(paid) {
    // What the stream last said, for whoever checks the page (a test, a support person).
    page.setAttribute('data-estado', paid ? 'pago' : 'aguardando');
    if (!status) return;
    status.textContent = paid ? 'Pagamento recebido' : '';
    status.hidden = !paid;
    // A payment link is sold once: paid, its page (served anew) says so to everyone and offers
    // no code to pay again.
    if (paid && page.hasAttribute('data-recarregar-ao-pagar')) window.location.reload();
  }

  function connect() {
    var url = page.getAttribute('data-live');
    // A browser resumes a dropped stream by itself (Last-Event-ID); a stream opened anew says
    // where it stopped in the address.
    if (lastId) url += (url.indexOf('?') < 0 ? '?' : '&') + 'desde=' + encodeURIComponent(lastId);
    var source = new window.EventSource(url);
    source.addEventListener('pagamento', function (event) {
      if (event.lastEventId) lastId = event.lastEventId;
      pause = 2000;
      try {
        show(JSON.parse(event.data).pago === true);
      } catch (ignored) {
        // A malformed event changes nothing on the page.
      }
    });
    source.onerror = function () {
      // After a refusal (503: too many watching) the browser gives up: try again, more slowly.
      if (source.readyState === window.EventSource.CLOSED) {
        window.setTimeout(connect, pause);
        pause = Math.min(pause * 2, 60000);
      }
    };
  }

  // A bank charge's validity, counted down; at its end the page is asked again and says the
  // charge expired (the server decides; this only shows the minutes left).
  // The seconds left come from the server's clock, counted here from when the page loaded, so a
  // phone whose clock is wrong still shows the right minutes.
  var validity = page.querySelector('[data-restam]');
  var countdown = validity && validity.querySelector('.countdown');
  var end = validity ? Date.now() + 1000 * Number(validity.getAttribute('data-restam')) : NaN;
  if (countdown && !isNaN(end)) {
    var two = function (n) {
      return (n < 10 ? '0' : '') + n;
    };
    var tick = function () {
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      var hours = Math.floor(left / 3600);
      var clock = two(Math.floor((left % 3600) / 60)) + ':' + two(left % 60);
      countdown.textContent = ' · faltam ' + (hours > 0 ? hours + ':' : '') + clock;
      if (left === 0) {
        window.clearInterval(timer);
        window.setTimeout(function () {
          window.location.reload();
        }, 1000);
      }
    };
    var timer = window.setInterval(tick, 1000);
    tick();
  }

  connect();
})();
