/* Data chart target: the page background, the white card, its title, subtitle and legend. */
(function (modules) {
  'use strict';

  var subtitle = modules.layout.subtitle;
  var roundRect = modules.paint.roundRect;
  var font = modules.paint.font;
  var fit = modules.paint.fit;

  function drawBackground(scene) {
    var context = scene.context;
    var view = scene.view;
    var W = view.width;
    var H = view.height;
    var gradient = context.createLinearGradient(0, 0, W, H);
    gradient.addColorStop(0, '#eef2f8');
    gradient.addColorStop(1, '#e3e8f0');
    context.fillStyle = gradient;
    context.fillRect(0, 0, W, H);
  }

  function drawCard(scene, card) {
    var context = scene.context;
    context.save();
    context.shadowColor = 'rgba(15, 23, 42, 0.10)';
    context.shadowBlur = 28;
    context.shadowOffsetY = 8;
    roundRect(context, card.x, card.y, card.w, card.h, 18);
    context.fillStyle = '#ffffff';
    context.fill();
    context.restore();
    roundRect(context, card.x + 0.5, card.y + 0.5, card.w - 1, card.h - 1, 18);
    context.strokeStyle = 'rgba(15, 23, 42, 0.06)';
    context.lineWidth = 1;
    context.stroke();
  }

  function drawHeader(scene, l) {
    var context = scene.context;
    var state = scene.state;
    var x = l.card.x + l.pad;
    var y = l.top;
    context.textBaseline = 'top';
    context.textAlign = 'left';
    if (l.title) {
      context.font = font(650, 22);
      context.fillStyle = '#0f172a';
      context.fillText(fit(context, l.title, l.card.w - l.pad * 2), x, y);
    }
    context.font = font(400, 13);
    context.fillStyle = '#64748b';
    context.fillText(fit(context, subtitle(state), l.card.w - l.pad * 2), x, y + l.titleHeight + 2);
  }

  function drawLegend(scene, legend) {
    var context = scene.context;
    legend.items.forEach(function (entry) {
      var x = entry.x;
      var y = entry.y;
      roundRect(context, x, y, entry.width, 28, 14);
      context.fillStyle = '#f4f6fa';
      context.fill();
      context.beginPath();
      context.arc(x + 14, y + 14, 5, 0, Math.PI * 2);
      context.fillStyle = entry.item.color;
      context.fill();
      context.textBaseline = 'middle';
      context.textAlign = 'left';
      context.font = font(600, 12);
      context.fillStyle = '#1e293b';
      context.fillText(entry.label, x + 24, y + 14.5);
      var nameWidth = context.measureText(entry.label).width;
      context.font = font(400, 12);
      context.fillStyle = '#64748b';
      context.fillText(entry.valueText, x + 24 + nameWidth + 6, y + 14.5);
    });
  }

  modules.card = { drawBackground: drawBackground, drawCard: drawCard, drawHeader: drawHeader, drawLegend: drawLegend };
})((window.ChartModules = window.ChartModules || {}));
