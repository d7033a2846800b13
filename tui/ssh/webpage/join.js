// The invitation's token is in this page's address: go on to the table, replacing this
// entry of the history, so that neither the address bar nor the history keeps the token.
location.replace("/");
