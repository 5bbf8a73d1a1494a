// Billing wording the page renders and the services return: shared with the browser, which
// hydrates the same text (a constant from a .server module is undefined there).
export const PAYMENTS_NOT_CONFIGURED = "Payments are not configured on this server, so billing runs locally.";
export const PORTAL_NOT_AVAILABLE = "The billing portal is not available because payments are not configured on this server.";
