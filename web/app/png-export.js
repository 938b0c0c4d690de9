// Turns what a view shows (a canvas, an SVG, or several canvases) into a PNG download.

export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const canvasToPng = (canvas) => new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));

export async function downloadCanvasPng(canvas, filename) {
  downloadBlob(await canvasToPng(canvas), filename);
}

export async function downloadSvgPng(svg, filename) {
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  const source = new XMLSerializer().serializeToString(svg);
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
  await image.decode();
  URL.revokeObjectURL(image.src);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d').drawImage(image, 0, 0);
  await downloadCanvasPng(canvas, filename);
}

// What container shows, on one white canvas at 2x: each canvas at its on-screen position and
// opacity (masked heads are dimmed), each text label (.grid-header), each border (the
// selected head's), so the image reads without the page beside it.
export async function downloadCompositePng(container, filename) {
  const scale = 2;
  const box = container.getBoundingClientRect();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(box.width * scale);
  canvas.height = Math.ceil(box.height * scale);
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, box.width, box.height);
  const at = (element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.left - box.left, y: rect.top - box.top, width: rect.width, height: rect.height };
  };
  for (const part of container.querySelectorAll('canvas')) {
    const { x, y, width, height } = at(part);
    context.globalAlpha = opacityOf(part, container);
    context.drawImage(part, x, y, width, height);
  }
  context.globalAlpha = 1;
  for (const label of container.querySelectorAll('.grid-header')) {
    const { x, y, width, height } = at(label);
    const style = getComputedStyle(label);
    context.font = style.font;
    context.fillStyle = style.color;
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(label.textContent, x + width / 2, y + height / 2);
  }
  for (const framed of container.querySelectorAll('.selected')) {
    const { x, y, width, height } = at(framed);
    const style = getComputedStyle(framed);
    context.strokeStyle = style.borderTopColor;
    context.lineWidth = parseFloat(style.borderTopWidth);
    context.strokeRect(x + context.lineWidth / 2, y + context.lineWidth / 2, width - context.lineWidth, height - context.lineWidth);
  }
  await downloadCanvasPng(canvas, filename);
}

// The product of the opacities from element up to (not including) container.
function opacityOf(element, container) {
  let opacity = 1;
  for (let node = element; node && node !== container; node = node.parentElement) {
    opacity *= Number(getComputedStyle(node).opacity);
  }
  return opacity;
}
