import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of this response, for inline scripts that must run before hydration. */
export const useNonce = () => useContext(NonceContext);
