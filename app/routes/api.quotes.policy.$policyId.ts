// Correctly spelled alias of /api/qoutes/policy/:policyId.
export { loader } from "./api.qoutes.policy.$policyId";
