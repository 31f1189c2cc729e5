import type { PdfFile } from "@/lib/documents/serve";

/** A PDF download: the bytes, `attachment` with the file's name, never cached by shared caches. */
export function pdfResponse(file: PdfFile): Response {
  const filename = file.filename.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${filename}"`,
      "content-length": String(file.bytes.length),
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
