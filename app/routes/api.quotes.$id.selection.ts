// Correctly spelled alias of /api/qoutes/:id/selection.
export { action, loader } from "./api.qoutes.$id.selection";
