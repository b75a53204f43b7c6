// A visitor with JavaScript reads the portal in the app: from a crawlable page to the same place
// at its hash route (data-app-route on <html>). Without JavaScript the page is read as it is.
(function () {
  var route = document.documentElement.getAttribute('data-app-route');
  if (route) window.location.replace('/portal/#' + route);
})();
