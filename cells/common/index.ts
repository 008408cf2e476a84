export { requireColumns } from "./require-columns";
