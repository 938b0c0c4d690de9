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

// Copies each canvas onto one white canvas at its on-screen position inside container.
export async function downloadCompositePng(container, filename) {
  const box = container.getBoundingClientRect();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(box.width);
  canvas.height = Math.ceil(box.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  for (const part of container.querySelectorAll('canvas')) {
    const rect = part.getBoundingClientRect();
    context.drawImage(part, rect.left - box.left, rect.top - box.top, rect.width, rect.height);
  }
  await downloadCanvasPng(canvas, filename);
}
