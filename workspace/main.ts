// The workspace entry point.
import "./components/jb-app";
